package org.modmq.controller.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.modmq.remoting.protocol.ResponseCode;

class ControllerStateTest {

    private static final String NAME = "broker-a";

    private static ControllerEvent apply(long id, String address) {
        return new ControllerEvent.ApplyBrokerId("c", NAME, id, address, address + ";" + id);
    }

    private static ControllerState twoReplicas() {
        ControllerState state = ControllerState.EMPTY.apply(apply(1, "127.0.0.1:10911")).state();
        return state.apply(apply(2, "127.0.0.1:10921")).state();
    }

    private static BrokerSetState set(ControllerState state) {
        return state.brokerSet(NAME).orElseThrow();
    }

    @Test
    void firstReplicaMustTakeIdOneAndIdsCountUp() {
        ControllerState.Applied wrongFirst = ControllerState.EMPTY.apply(apply(2, "127.0.0.1:1"));
        assertThat(wrongFirst.result().code()).isEqualTo(ResponseCode.CONTROLLER_BROKER_ID_INVALID);
        assertThat(wrongFirst.state()).isEqualTo(ControllerState.EMPTY);
        ControllerState state = twoReplicas();
        assertThat(set(state).nextBrokerId()).isEqualTo(3);
        assertThat(set(state).replicas()).containsOnlyKeys(1L, 2L);
        assertThat(set(state).masterEpoch()).isZero();
    }

    @Test
    void anIdIsKeptByItsCheckCodeAndRefusedToAnother() {
        ControllerState state = twoReplicas();
        ControllerState.Applied again = state.apply(apply(1, "127.0.0.1:10911"));
        assertThat(again.result().applied()).isTrue();
        assertThat(again.state()).isEqualTo(state);
        ControllerState.Applied taken = state.apply(apply(1, "127.0.0.1:9999"));
        assertThat(taken.result().code()).isEqualTo(ResponseCode.CONTROLLER_BROKER_ID_INVALID);
        assertThat(taken.state()).isEqualTo(state);
    }

    @Test
    void aHigherIdThanOfferedMovesTheNextIdPastIt() {
        ControllerState state = ControllerState.EMPTY.apply(apply(1, "a:1")).state().apply(apply(5, "a:5")).state();
        assertThat(set(state).nextBrokerId()).isEqualTo(6);
    }

    @Test
    void electionRaisesBothEpochsAndResetsTheSyncStateSet() {
        ControllerState state = twoReplicas().apply(new ControllerEvent.ElectMaster(NAME, 1L, 0, 0)).state();
        assertThat(set(state).masterBrokerId()).isEqualTo(1);
        assertThat(set(state).masterEpoch()).isEqualTo(1);
        assertThat(set(state).syncStateSet()).containsExactly(1L);
        assertThat(set(state).syncStateSetEpoch()).isEqualTo(1);
        assertThat(set(state).masterAddress()).isEqualTo("127.0.0.1:10911");
    }

    @Test
    void staleElectionsAreFenced() {
        ControllerState state = twoReplicas().apply(new ControllerEvent.ElectMaster(NAME, 1L, 0, 0)).state();
        ControllerState.Applied staleMaster = state.apply(new ControllerEvent.ElectMaster(NAME, 2L, 0, 1));
        assertThat(staleMaster.result().code()).isEqualTo(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH);
        ControllerState.Applied staleSet = state.apply(new ControllerEvent.ElectMaster(NAME, 2L, 1, 0));
        assertThat(staleSet.result().code()).isEqualTo(ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH);
        assertThat(staleSet.state()).isEqualTo(state);
        ControllerState.Applied unknown = state.apply(new ControllerEvent.ElectMaster(NAME, 7L, 1, 1));
        assertThat(unknown.result().code()).isEqualTo(ResponseCode.CONTROLLER_INVALID_REQUEST);
    }

    @Test
    void clearingTheMasterKeepsTheSyncStateSetAndRaisesOnlyTheMasterEpoch() {
        ControllerState state = twoReplicas().apply(new ControllerEvent.ElectMaster(NAME, 1L, 0, 0)).state();
        state = state.apply(alter(1, 1, 1, 1L, 2L)).state();
        ControllerState cleared = state.apply(new ControllerEvent.ElectMaster(NAME, null, 1, 2)).state();
        assertThat(set(cleared).masterBrokerId()).isNull();
        assertThat(set(cleared).masterEpoch()).isEqualTo(2);
        assertThat(set(cleared).syncStateSet()).containsExactly(1L, 2L);
        assertThat(set(cleared).syncStateSetEpoch()).isEqualTo(2);
    }

    @Test
    void alterSyncStateSetChecksMasterEpochsAndMembersInRocketMqOrder() {
        ControllerState state = twoReplicas().apply(new ControllerEvent.ElectMaster(NAME, 1L, 0, 0)).state();
        assertThat(state.apply(alter(2, 1, 1, 1L, 2L)).result().code()).isEqualTo(ResponseCode.CONTROLLER_INVALID_MASTER);
        assertThat(state.apply(alter(1, 0, 1, 1L, 2L)).result().code()).isEqualTo(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH);
        assertThat(state.apply(alter(1, 1, 0, 1L, 2L)).result().code())
                .isEqualTo(ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH);
        assertThat(state.apply(alter(1, 1, 1, 1L, 9L)).result().code()).isEqualTo(ResponseCode.CONTROLLER_INVALID_REPLICAS);
        assertThat(state.apply(alter(1, 1, 1, 2L)).result().code())
                .isEqualTo(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED);
        assertThat(state.apply(alter(1, 1, 1, 1L)).result().code())
                .isEqualTo(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED);
        ControllerState.Applied ok = state.apply(alter(1, 1, 1, 1L, 2L));
        assertThat(ok.result().applied()).isTrue();
        assertThat(set(ok.state()).syncStateSet()).containsExactly(1L, 2L);
        assertThat(set(ok.state()).syncStateSetEpoch()).isEqualTo(2);
        assertThat(set(ok.state()).masterEpoch()).isEqualTo(1);
    }

    @Test
    void cleanRemovesReplicasOrTheWholeSet() {
        ControllerState state = twoReplicas().apply(new ControllerEvent.ElectMaster(NAME, 1L, 0, 0)).state();
        ControllerState withoutMaster = state.apply(ControllerEvent.CleanBrokerData.of(NAME, Set.of(1L))).state();
        assertThat(set(withoutMaster).replicas()).containsOnlyKeys(2L);
        assertThat(set(withoutMaster).masterBrokerId()).isNull();
        assertThat(set(withoutMaster).masterEpoch()).isEqualTo(2);
        assertThat(state.apply(ControllerEvent.CleanBrokerData.of(NAME, Set.of())).state().brokerSets()).isEmpty();
        assertThat(ControllerState.EMPTY.apply(ControllerEvent.CleanBrokerData.of(NAME, Set.of())).result().code())
                .isEqualTo(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA);
    }

    @Test
    void eventsAndStatesSurviveTheCodec() {
        ControllerState state = twoReplicas().apply(new ControllerEvent.ElectMaster(NAME, 1L, 0, 0)).state();
        assertThat(StateCodec.decodeState(StateCodec.encodeState(state))).isEqualTo(state);
        ControllerEvent event = alter(1, 1, 1, 1L, 2L);
        assertThat(StateCodec.decodeEvent(StateCodec.encodeEvent(event))).isEqualTo(event);
        assertThat(StateCodec.decodeEvent(StateCodec.encodeEvent(new ControllerEvent.Barrier(3))))
                .isEqualTo(new ControllerEvent.Barrier(3));
        EventResult result = EventResult.refused(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH, "x");
        assertThat(StateCodec.decodeResult(StateCodec.encodeResult(result))).isEqualTo(result);
    }

    private static ControllerEvent.AlterSyncStateSet alter(long master, int masterEpoch, int setEpoch, Long... ids) {
        return new ControllerEvent.AlterSyncStateSet(NAME, master, masterEpoch, setEpoch, new TreeSet<>(Set.of(ids)));
    }
}
